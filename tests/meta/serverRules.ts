// The server's floors and faces, checked by dependency-cruiser beside the console's rules (./importRules.ts).
import type { IForbiddenRuleType } from 'dependency-cruiser';

export const SERVER_RULES: IForbiddenRuleType[] = [];
