// The lazy facade of the asset plugin: one named export per page.
export {};
