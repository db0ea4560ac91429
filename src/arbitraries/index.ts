// Generators for properties, one file per kind, each with a constraints object.
export { amount, amountOutside } from './amounts.js';
export { aroundLimit, lengthCases } from './boundaries.js';
export { fromSchema } from './from-schema.js';
export { hostileString, wrongType } from './hostile.js';
export { invalidPhone, invalidUsername, numericString, phone, username } from './identifiers.js';
export { text, visibleText } from './strings.js';
