import { describe, expect, it } from 'vitest';
import { TaskPool } from '../../src/runtime/task-pool.js';

const mod = new URL('./fixtures/double-task.ts', import.meta.url).href;

describe('TaskPool', () => {
  it('runs batches of a task module off the main thread and reports failures with a code', async () => {
    const pool = new TaskPool({ threads: 1, typescript: true });
    expect(await pool.run(mod, [1, 2, 3])).toEqual([2, 4, 6]);
    const many = await Promise.all(Array.from({ length: 20 }, (_, i) => pool.run<number[], number[]>(mod, [i])));
    expect(many.map((r) => r[0])).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
    await expect(pool.run(mod, null, 'fail')).rejects.toMatchObject({ code: 'TASK_FAILED' });
    // the pool keeps working after a failed task
    expect(await pool.run(mod, [5])).toEqual([10]);
    await pool.close();
  });
});
