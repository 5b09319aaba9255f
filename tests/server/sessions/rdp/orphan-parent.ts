import { startDisplay } from '../../../../server/modules/sessions/rdp/display.ts';

// A stand-in for a server that crashes: starts a desktop display, prints Xvnc's pid, and waits to be SIGKILLed
// (desktop.test.ts). Its Xvnc then carries the marker and an owner that is no longer its parent.
const display = await startDisplay({ sessionId: 'orphan-test', width: 640, height: 480 });
process.stdout.write(`${display.pid}\n`);
setInterval(() => {}, 60_000);
