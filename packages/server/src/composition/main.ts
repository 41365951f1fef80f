#!/usr/bin/env node
import { serve } from './serve.js';

// The service alone, as deployments run it; `npm start` runs the live devnet (@dex/devnet), the bot beside it.
serve();
