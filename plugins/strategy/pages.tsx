// The lazy facade of the strategy plugin: one named export per page.
export {};
