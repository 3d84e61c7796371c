/** Every kind of event weft records: interrupts from the fabric (paper 000 §7.7) and actions of
 * the control plane. */
export enum FabricEventKind {
  ForwardProgressTimeout = 'FORWARD_PROGRESS_TIMEOUT',
  LaneDecommissioned = 'LANE_DECOMMISSIONED',
  LinkDown = 'LINK_DOWN',
  LinkUp = 'LINK_UP',
  RouterUnresponsive = 'ROUTER_UNRESPONSIVE',
  SoftError = 'SOFT_ERROR',
  ConfigurationError = 'CONFIGURATION_ERROR',
  GenerationComputed = 'GENERATION_COMPUTED',
  GenerationPushed = 'GENERATION_PUSHED',
  FaultDeclared = 'FAULT_DECLARED',
  FaultCleared = 'FAULT_CLEARED',
  DrillStep = 'DRILL_STEP',
  FabricLoaded = 'FABRIC_LOADED',
  FabricDeleted = 'FABRIC_DELETED',
}
