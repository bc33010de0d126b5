export {};
//# sourceMappingURL=transport.js.map