/** jest's globalTeardown: the run's own temporary directory removed (temp-root.ts). */
import { removeRunTemp } from "./temp-root";

export default function globalTeardown(): void {
  removeRunTemp();
}
