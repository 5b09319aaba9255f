// The lazy facade of the credential plugin: one named export per page.
export {};
