/**
 * The schema keyword that says in words what a request field takes, for the 400 a client gets
 * when it sends something else: a phrase to follow "must be", with an example ("an order id, as
 * a number or a string of its digits, e.g. 42 or \"42\""). It sits on the schema of each field whose
 * form the plain keywords cannot say by themselves (a pattern; a union of a number and its
 * digits), on the union itself where there is one. OpenAPI keeps `x-` keywords as extensions, so
 * `/docs` shows the same words.
 */
export const FORM = 'x-form';
