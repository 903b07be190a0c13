/** The error body of a refused request, as the simulator sends it (src/api/http/response-errors.ts reads it). */
import { z } from "zod";

/**
 * The error body the simulator sends (the interface does not show the service's). The client
 * reads `message` from it when present, and otherwise falls back to other common shapes.
 */
export const errorBodySchema = z.object({
  type$: z.literal("ERROR"),
  code: z.string(),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
