import { Registry, type Metric } from 'prom-client';
import { checkCollected, checkRegistration, shapeOf, type CollectedFamily } from './consistency.js';

/**
 * A registry that refuses inconsistent metrics, like client_golang's
 * pedantic registry: at registration (invalid names, a name registered
 * again with another type, help or labels, sample names that collide) and
 * at every collection (see checkCollected). A refused collection throws a
 * MetricInconsistencyError naming the metric, so the scrape fails.
 * Collected families are checked, then formatted by prom-client, which
 * collects them a second time: this registry is for finding mistakes, not
 * for speed.
 */
export class PedanticRegistry extends Registry {
  override registerMetric<T extends string>(metric: Metric<T>): void {
    const shape = shapeOf(metric);
    if (this.getSingleMetric(shape.name) === metric) return;
    const registered = this.getMetricsAsArray().map((m) => shapeOf(this.getSingleMetric(m.name) as Metric));
    checkRegistration(shape, registered);
    super.registerMetric(metric);
  }

  /** Collects and checks every metric once. */
  async checkConsistency(): Promise<void> {
    await Promise.all(this.getMetricsAsArray().map((m) => this.checkOne(this.getSingleMetric(m.name) as Metric)));
  }

  override async metrics(): Promise<string> {
    await this.checkConsistency();
    return super.metrics();
  }

  override async getSingleMetricAsString(name: string): Promise<string> {
    const metric = this.getSingleMetric(name);
    if (metric !== undefined) await this.checkOne(metric);
    return super.getSingleMetricAsString(name);
  }

  override async getMetricsAsJSON(): ReturnType<Registry['getMetricsAsJSON']> {
    const families = await super.getMetricsAsJSON();
    const defaults = Object.keys((this as unknown as { _defaultLabels?: object })._defaultLabels ?? {});
    for (const family of families) {
      const metric = this.getSingleMetric(family.name);
      if (metric !== undefined) checkCollected(shapeOf(metric), family as unknown as CollectedFamily, defaults);
    }
    return families;
  }

  private async checkOne(metric: Metric): Promise<void> {
    const family = (await metric.get()) as unknown as CollectedFamily;
    checkCollected(shapeOf(metric), family);
  }
}
