// The inline boot's entry (scripts/prerender-first-screen.ts builds it into index.html): runs as the page parses.
import { bootFirstScreen } from './firstScreenBoot';

bootFirstScreen();
