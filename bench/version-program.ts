/**
 * A program that only prints its version, compiled with the product's build flags: the baseline
 * of the release figure, what `agent --version` cannot beat (runtime start, an embedded bundle,
 * one line on stdout).
 */
import { version } from "../package.json";

console.log(`${version} (bare)`);
