export { createRouter, isInvokeChannel, describeIssue, type Router, type RouterOptions } from './router.js';
