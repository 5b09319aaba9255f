export { FLOW_HIGH_WATER, FLOW_LOW_WATER, flowControlled } from './flow';
export type { FlowControlledWriter, FlowControlOptions, WriteTarget } from './flow';
export { decodeFrame, encodeData, encodePause, encodePing, encodeResize, encodeResume, FRAME, socketUrl } from './frames';
export type { Frame, FrameType } from './frames';
export { TERMINAL_BACKGROUND, XtermView } from './XtermView';
export type { XtermHandle, XtermViewProps } from './XtermView';
