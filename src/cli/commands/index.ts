import type { Command } from "../io";
import { applyCommand } from "./apply";
import { planCommand } from "./plan";
import { simulatorCommand } from "./simulator";

export const COMMANDS: readonly Command[] = [planCommand, applyCommand, simulatorCommand];
