/** jest's globalSetup: the run's own temporary directory (temp-root.ts). */
import { makeRunTemp } from "./temp-root";

export default function globalSetup(): void {
  makeRunTemp();
}
