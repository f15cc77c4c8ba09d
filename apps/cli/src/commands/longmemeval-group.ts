import type { Command } from 'commander';

// one run of LongMemEval end to end, as the verbs' own --help shows each step
const steps = `  qualm bench longmemeval retrieve --data longmemeval_s_cleaned.json.gz --level session
  export OPENAI_API_KEY=...
  qualm bench longmemeval generate --data longmemeval_oracle.json --reader-model gpt-4o-mini \\
    --history oracle --reading con --out oracle_con.jsonl
  qualm bench longmemeval evaluate --data longmemeval_oracle.json --run oracle_con.jsonl \\
    --out oracle_con.eval-results.jsonl
  qualm bench longmemeval metrics --data longmemeval_oracle.json --run oracle_con.eval-results.jsonl
  qualm bench longmemeval replay --data longmemeval_oracle.json --run oracle_con.eval-results.jsonl \\
    --abstention --no-nli
  qualm bench longmemeval report --data longmemeval_oracle.json \\
    --run oracle_con.eval-results.jsonl --out report/`;

const example = `
Examples:
${steps}

Each verb's --help says more, for example: qualm bench longmemeval generate --help`;

/**
 * The `qualm bench longmemeval` command group, created on first use so that each of its verbs can
 * live in a file of its own and add itself.
 */
export function longmemevalCommand(program: Command): Command {
  let bench = program.commands.find((command) => command.name() === 'bench');
  if (!bench) {
    bench = program
      .command('bench')
      .description('Run benchmarks of qualm detectors on public data.')
      .addHelpText('after', example);
  }
  let group = bench.commands.find((command) => command.name() === 'longmemeval');
  if (!group) {
    group = bench
      .command('longmemeval')
      .description('LongMemEval: retrieval, reader, evaluator, abstention replay and reports.')
      .addHelpText('after', example);
  }
  return group;
}
