// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

interface IFarmForStaker {
    function deposit(uint256 pid, uint256 amount) external;
    function harvest(uint256 pid) external;
}

interface IApprove {
    function approve(address spender, uint256 amount) external returns (bool);
}

/// A farm staker that is a contract and refuses native coin until told otherwise, to test that
/// the farm keeps a refused payment owed instead of losing it.
contract RefusingStaker {
    bool public accepts;

    function setAccepts(bool accepts_) external {
        accepts = accepts_;
    }

    function stake(address farm, uint256 pid, address lpToken, uint256 amount) external {
        IApprove(lpToken).approve(farm, amount);
        IFarmForStaker(farm).deposit(pid, amount);
    }

    function harvest(address farm, uint256 pid) external {
        IFarmForStaker(farm).harvest(pid);
    }

    receive() external payable {
        require(accepts, "refused");
    }
}
