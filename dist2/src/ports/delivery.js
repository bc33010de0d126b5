export {};
//# sourceMappingURL=delivery.js.map