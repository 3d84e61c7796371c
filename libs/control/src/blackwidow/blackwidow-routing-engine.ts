/**
 * The BlackWidow routing engine as the driver sees it (engine/routing-engine.ts): the incremental
 * configurator's compute, proof and adoption, apart.
 */
import type { KnownFabric } from '../discovery/known-fabric';
import type { FaultSet } from '../faults/fault-set';
import type { RoutingEngine, Unreachable } from '../engine/routing-engine';
import type { ConfigurationImage, LinkSettingsPolicy } from './blackwidow-engine';
import { DEFAULT_LINK_SETTINGS } from './blackwidow-engine';
import { BlackWidowConfigurator, ComputedConfiguration } from './incremental-configuration';
import type { VerificationReport } from '../engine/verification';

export class BlackWidowRoutingEngine implements RoutingEngine<ConfigurationImage, ComputedConfiguration> {
  readonly name = 'blackwidow';
  private readonly configurator: BlackWidowConfigurator;

  constructor(known: KnownFabric, settings: LinkSettingsPolicy = DEFAULT_LINK_SETTINGS) {
    this.configurator = new BlackWidowConfigurator(known, settings);
  }

  compute(faults: FaultSet, options?: { full?: boolean }): ComputedConfiguration {
    return this.configurator.compute(faults, options);
  }

  verify(computed: ComputedConfiguration): VerificationReport {
    return this.configurator.verify(computed);
  }

  adopt(computed: ComputedConfiguration, verification: VerificationReport): void {
    this.configurator.adopt(computed, verification);
  }

  unreachable(computed: ComputedConfiguration): readonly Unreachable[] {
    return computed.next.result.unreachable;
  }
}
