import { Controller, Get, Header } from '@nestjs/common';
import { MetricsService } from './metrics.service';

/** Prometheus's scrape, open as the health probes are: counts and durations, nothing of a fabric's contents. */
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
