/** Every kind of event weft records: interrupts from the fabric (paper 000 §7.7) and actions of
 * the control plane. */
export enum FabricEventKind {
  FORWARD_PROGRESS_TIMEOUT = 'FORWARD_PROGRESS_TIMEOUT',
  LANE_DECOMMISSIONED = 'LANE_DECOMMISSIONED',
  LINK_DOWN = 'LINK_DOWN',
  LINK_UP = 'LINK_UP',
  ROUTER_UNRESPONSIVE = 'ROUTER_UNRESPONSIVE',
  SOFT_ERROR = 'SOFT_ERROR',
  CONFIGURATION_ERROR = 'CONFIGURATION_ERROR',
  GENERATION_COMPUTED = 'GENERATION_COMPUTED',
  GENERATION_PUSHED = 'GENERATION_PUSHED',
  /** An alarm: a computed generation failed its proof and was not pushed (details.reason says why);
   * the fabric keeps the configuration in force before it. */
  GENERATION_REJECTED = 'GENERATION_REJECTED',
  FAULT_DECLARED = 'FAULT_DECLARED',
  FAULT_CLEARED = 'FAULT_CLEARED',
  DRILL_STEP = 'DRILL_STEP',
  FABRIC_LOADED = 'FABRIC_LOADED',
  FABRIC_DELETED = 'FABRIC_DELETED',
}
