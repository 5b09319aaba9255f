// Server tests run in node against real SQLite files; nothing global to set up yet.
export {};
