/**
 * What each Lambda bundle may weigh and take to load, apart from the bench that measures it
 * (test/bench/lambda.ts), so a unit test can hold a bundle to its mark without loading the stacks.
 */

/** DESIGN.md section 7: each bundle <= 500 KB minified, module init <= 150 ms. */
export const budget = { minifiedBytes: 500 * 1024, initMs: 150 };

/**
 * The next marks under the budget (issue 32), minified: the health probe is the HTTP pipeline alone, the
 * loader's function (`widget`) the pipeline and one project read, so they show what every function pays.
 */
export const marks: Record<string, number> = { health: 135 * 1024, widget: 140 * 1024 };
