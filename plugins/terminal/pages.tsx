// The lazy facade of the terminal plugin: one named export per page.
export { TerminalPage } from './components/TerminalPage';
