import { sql, type SQL } from 'drizzle-orm';
import { getDb, watchStatements } from './client';
import { queryRows } from './statement';

/** A node of PostgreSQL's `explain (format json)` plan, with the fields these tests read. */
export type PlanNode = {
  'Node Type': string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  'Relation Name'?: string;
  /** How the node feeds its parent: `InitPlan` and `SubPlan` (a CTE's definition too) run beside it, not into it. */
  'Parent Relationship'?: string;
  /** With `analyze`: the rows the node returned, per loop. */
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
};

/** The node and every node under it, depth first. */
export function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}

/**
 * The node and the nodes whose rows flow into it (not the CTEs and subplans it merely holds), depth first; with
 * `throughLimit: false`, not below a LIMIT (a sort of a page's few rows reads the table only through its LIMIT).
 */
export function inputNodes(node: PlanNode, { throughLimit = true } = {}): PlanNode[] {
  const inputs = (node.Plans ?? []).filter((n) => !['InitPlan', 'SubPlan'].includes(n['Parent Relationship'] ?? ''));
  const below = throughLimit || node['Node Type'] !== 'Limit' ? inputs : [];
  return [node, ...below.flatMap((n) => inputNodes(n, { throughLimit }))];
}

/** drizzle's `$n` text and its parameters as one SQL object again. */
function rebuilt(text: string, params: unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  return sql.join(parts.map((part, i) => (i % 2 === 1 ? sql`${params[Number(part) - 1]}` : sql.raw(part))));
}

/**
 * Runs `action` and returns the plan (its root) of the one statement it sent that reads `table` with a LIMIT (or,
 * with `limited: false`, of the one statement that reads it). `analyze` runs the statement again to plan it, so
 * the nodes hold the rows they actually returned.
 * `withoutSeqScan` plans as if the table were big: a small test table is cheaper to read whole, and the
 * question is then whether an index can serve the statement at all (its expression and operators match).
 * `withoutSort` plans as if sorting were dear, as a planner does that expects a page's rows early in an index
 * walk (at 100,000 rows its statistics say so even when the walk finds them at its end).
 */
export async function planOf(
  table: string,
  action: () => Promise<unknown>,
  { withoutSeqScan = false, withoutSort = false, limited = true, analyze = false } = {},
): Promise<PlanNode> {
  const sent: { text: string; params: unknown[] }[] = [];
  const stop = watchStatements((text, params) => sent.push({ text, params }));
  try {
    await action();
  } finally {
    stop();
  }
  const reads = sent.filter((s) => s.text.includes(`from "${table}"`) && (!limited || /\blimit\b/i.test(s.text)));
  if (reads.length !== 1) throw new Error(`expected one read of ${table}, saw ${reads.length}`);
  return planOfText(reads[0].text, reads[0].params, { withoutSeqScan, withoutSort, analyze });
}

/** The plan (its root) of a statement as drizzle sent it (`watchStatements`): its `$n` text and parameters. */
export async function planOfText(
  text: string,
  params: unknown[],
  { withoutSeqScan = false, withoutSort = false, analyze = false } = {},
): Promise<PlanNode> {
  const db = await getDb();
  const rows = await db.transaction(async (tx) => {
    if (withoutSeqScan) await tx.execute(sql`set local enable_seqscan = off`);
    if (withoutSort) await tx.execute(sql`set local enable_sort = off`);
    const options = sql.raw(analyze ? '(analyze, format json)' : '(format json)');
    return queryRows<{ 'QUERY PLAN': unknown }>(tx, sql`explain ${options} ${rebuilt(text, params)}`);
  });
  const plan = rows[0]['QUERY PLAN'];
  return ((typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: PlanNode }[])[0].Plan;
}
