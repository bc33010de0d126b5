export {};
//# sourceMappingURL=scheme.js.map