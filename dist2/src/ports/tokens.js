export {};
//# sourceMappingURL=tokens.js.map