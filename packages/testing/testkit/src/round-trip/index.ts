export { anyJson, argumentsArbitrary, TRICKY_STRINGS } from './declared-values.ts'
export { hardSchema } from './hard-schemas.ts'
export {
  formatReport,
  type RoundTripOptions,
  type RoundTripReport,
  type RouteTally,
  roundTrip,
  type ToolUnderTest,
} from './harness.ts'
export { WireCheck } from './wire-check.ts'
export { asksForJsonText, type Encoded, type EncoderContext, encodeForWire } from './wire-encoder.ts'
