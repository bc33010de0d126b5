export {};
//# sourceMappingURL=processing.js.map