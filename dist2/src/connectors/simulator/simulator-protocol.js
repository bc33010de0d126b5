export {};
//# sourceMappingURL=simulator-protocol.js.map