// The lazy facade of the my-area plugin: one named export per page.
export {};
