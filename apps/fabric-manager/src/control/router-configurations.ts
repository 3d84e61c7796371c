/**
 * Each family's router configuration as its GraphQL type (issue 35, capability 5): a chip decoded
 * by its routing engine (DecodedChip), presented behind the RouterConfiguration interface. A family
 * arrives as a member of DecodedChip, a GraphQL type and a case here; the switch is exhaustive, so
 * a family without one does not compile.
 */
import { DecodedChip, target } from '@weft/control';
import type { BlackWidowRouterConfigurationModel, RouterConfigurationModel } from './dto/router-configuration.model';

export function presentRouterConfiguration(decoded: DecodedChip, generation: number): RouterConfigurationModel {
  switch (decoded.family) {
    case 'blackwidow': {
      const d = decoded.router;
      const model: BlackWidowRouterConfigurationModel = {
        ...d,
        family: decoded.family,
        generation,
        outOfService: [...decoded.outOfService],
        virtualRouters: d.virtualRouters.map((vr) => ({
          ...vr,
          rootDetect: { first: vr.rootDetect.location, second: vr.rootDetect.mask, meaning: vr.rootDetect.meaning },
          downRoute: { first: vr.downRoute.shift, second: vr.downRoute.mask, meaning: vr.downRoute.meaning },
          portMap: [...vr.portMap],
          table: [...vr.table],
        })),
        link: { ...d.link, octantRatesGbps: [...d.link.octantRatesGbps] },
        raw: d.raw.map((w) => ({ register: w.register, target: target(w), value: [...w.value] })),
      };
      return model;
    }
  }
}
