export {};
//# sourceMappingURL=store.js.map