import { outOfServiceLines } from './router-view';

const why = (reason: string, port: number, designedAs: string, farEnd: string) => ({ port, designedAs, farEnd, reason });

describe('routes show: ports out of service', () => {
  it('gives a port of its own reason its own line, naming the far end', () => {
    expect(outOfServiceLines([why('cable fault on s0.r1.3:40 (fault #1, …)', 40, 'side', 's0.r1.4:45')])).toEqual([
      '  out of service: port 40 (sidelink to s0.r1.4:45): cable fault on s0.r1.3:40 (fault #1, …)',
    ]);
  });

  it('puts the ports that share a reason on one line: the cables to a dead router', () => {
    const farDead = 'the far router s0.r1.4 is out of service (fault #4, …)';
    const unexplained = 'no fault or finding names it: the routing found no use for it';
    const lines = outOfServiceLines([
      why(farDead, 32, 'side', 's0.r1.4:40'),
      why(farDead, 33, 'side', 's0.r1.4:41'),
      why(farDead, 35, 'side', 's0.r1.4:47'),
      why(unexplained, 0, 'down', 'p96:0'),
      why(unexplained, 1, 'down', 'p97:0'),
      why(unexplained, 48, 'side', 's0.r1.6:33'),
    ]);
    expect(lines).toEqual([
      `  out of service: ports 32–33, 35 (3 sidelinks to s0.r1.4): ${farDead}`,
      `  out of service: ports 0–1, 48 (2 downlinks, 1 sidelink): ${unexplained}`,
    ]);
  });
});
