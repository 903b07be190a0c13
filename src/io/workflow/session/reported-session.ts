/**
 * The session of a command's run: opened from plain settings (what a front door made of its
 * flags), with its warnings, retries and progress told to the run's {@link RunReporter}, and
 * closed when the run is done with it.
 */
import { openSession, type InvalidSettings, type OpenSession, type SessionSettings } from "./connect";
import type { RunReporter } from "./reporter";

/** A session of a run; `close()` ends its progress (the reporter's `idle`). */
export interface ReportedSession extends OpenSession {
  close(): void;
}

/** Opens the session of `settings` (throws what made them invalid); every retry, warning and progress step goes to `reporter`. */
export async function openReportedSession(settings: SessionSettings | InvalidSettings, reporter: RunReporter): Promise<ReportedSession> {
  if ("invalid" in settings) throw settings.invalid;
  let rateLimiter: OpenSession["rateLimiter"] | undefined;
  const opened = await openSession({
    ...settings,
    onWarning: (message) => reporter.warn(message),
    requestHook: (context) => {
      rateLimiter = context.rateLimiter;
      return (event) => {
        if (event.outcome !== "retry") return;
        const rps = event.status === 429 ? context.rateLimiter.state().rps : undefined;
        reporter.retry({ event, baseUrl: context.baseUrl, policy: context.retryPolicy, rps });
      };
    },
    onProgress: (phase, done, total) => {
      reporter.progress({ phase, done, total, rate: rateLimiter?.state() });
    },
  });
  return { ...opened, close: () => reporter.idle() };
}

/** Opens the session, runs `work` with it, and closes it however `work` ends. */
export async function withSession<T>(settings: SessionSettings | InvalidSettings, reporter: RunReporter, work: (session: ReportedSession) => Promise<T>): Promise<T> {
  const session = await openReportedSession(settings, reporter);
  try {
    return await work(session);
  } finally {
    session.close();
  }
}
