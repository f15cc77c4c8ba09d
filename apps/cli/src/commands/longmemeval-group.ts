import type { Command } from 'commander';

/**
 * The `qualm bench longmemeval` command group, created on first use so that each of its verbs can
 * live in a file of its own and add itself.
 */
export function longmemevalCommand(program: Command): Command {
  let bench = program.commands.find((command) => command.name() === 'bench');
  if (!bench) {
    bench = program
      .command('bench')
      .description('Run benchmarks of qualm detectors on public data.');
  }
  let group = bench.commands.find((command) => command.name() === 'longmemeval');
  if (!group) {
    group = bench
      .command('longmemeval')
      .description('LongMemEval: retrieval, reader, evaluator, abstention replay and reports.');
  }
  return group;
}
