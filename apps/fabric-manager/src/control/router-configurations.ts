/**
 * Each family's router configuration as its GraphQL type (issue 35, capability 5): a chip decoded
 * by its routing engine (DecodedChip), presented behind the RouterConfiguration interface. A family
 * arrives as a member of DecodedChip, a GraphQL type and a case here; the switch is exhaustive, so
 * a family without one does not compile.
 */
import { DecodedChip, target } from '@weft/control';
import type {
  Anton2AsicConfigurationModel,
  BglNodeConfigurationModel,
  BlackWidowRouterConfigurationModel,
  FlatRouterConfigurationModel,
  RouterConfigurationModel,
} from './dto/router-configuration.model';

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
    case 'bgl': {
      const d = decoded.node;
      const model: BglNodeConfigurationModel = {
        chip: d.name,
        family: decoded.family,
        generation,
        outOfService: [...decoded.outOfService],
        coordinates: [...d.coordinates],
        controlAddress: [...d.controlAddress],
        neighbours: d.neighbours.map((n) => ({ ...n, coordinates: [...n.coordinates] })),
        hints: d.hints.map((h) => ({ ...h })),
        arbitration: { ...d.arbitration },
        bubble: { ...d.bubble },
        routeOverrides: [...d.routeOverrides],
        raw: d.raw.map((w) => ({ register: w.register, target: `node ${d.name}`, value: [...w.value] })),
      };
      return model;
    }
    case 'anton2': {
      const d = decoded.asic;
      const model: Anton2AsicConfigurationModel = {
        chip: d.name,
        family: decoded.family,
        generation,
        outOfService: [...decoded.outOfService],
        coordinates: [...d.coordinates],
        torusSize: [...d.torusSize],
        controlAddress: [...d.controlAddress],
        datelines: d.datelines.map((x) => ({ ...x })),
        routePolicy: [...d.routePolicy],
        arbitration: d.arbitration,
        multicastTable: [...d.multicastTable],
        raw: d.raw.map((w) => ({ register: w.register, target: `ASIC ${d.name}`, value: [...w.value] })),
      };
      return model;
    }
    case 'flattened-butterfly': {
      const d = decoded.router;
      const model: FlatRouterConfigurationModel = {
        chip: d.name,
        family: decoded.family,
        generation,
        outOfService: [...decoded.outOfService],
        coordinates: [...d.coordinates],
        serviceAddress: [...d.serviceAddress],
        routing: d.routing,
        portMap: [...d.portMap],
        vcs: d.vcs,
        excludedIntermediates: [...d.excludedIntermediates],
        raw: d.raw.map((w) => ({ register: w.register, target: `router ${d.name}`, value: [...w.value] })),
      };
      return model;
    }
  }
}
