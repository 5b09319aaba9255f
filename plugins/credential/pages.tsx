// The lazy facade of the credential plugin: one named export per page; this module becomes static/plugin-credential-*.js.
export { CredentialList } from './components/CredentialList';
