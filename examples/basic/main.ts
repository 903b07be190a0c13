/**
 * A cdktf app that keeps the sample tenant's rule lists in git (the tenant the simulator serves:
 * examples/sample-tenant.json). `npm run demo` plans and applies it against the simulator.
 */
import { App, TerraformStack } from "cdktf";
import type { Construct } from "constructs";
import { RuleUserList, RuleUserListPolicy } from "alert-rule-users";

class AlertRuleUsersStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);

    // An inclusion list, by rule ID: Erin joins, Bob gains an alias, Carmen loses one, Dmitri leaves.
    new RuleUserList(this, "engineering-exfiltration", {
      ruleId: "a33e7c21-5cb0-4cf5-a266-852063111751",
      users: [
        { userId: "908712345678901234", aliases: ["alice.nguyen@example.com", "alice.nguyen@eng.example.com"] },
        { userId: "908712345678901235", aliases: ["bob.okafor@example.com", "bokafor@eng.example.com"] },
        { userId: "908712345678901236", aliases: ["carmen.diaz@example.com"] },
        { userId: "908712345678901238", aliases: ["erin.walker@example.com"] },
      ],
    });

    // Checks every list of this stack at plan time: a list that breaks one is a plan error (exit 1)
    // and apply sends nothing. (exclusionListsRequireExpiry: { maxDays: 90 } would also make every
    // exception of an exclusion list expire within 90 days; forbidRemovalsFromInclusionLists: true
    // would refuse any removal from an inclusion list.)
    new RuleUserListPolicy(this, "guardrails", {
      maxUsers: 50,
      allowedAliasDomains: ["example.com", "eng.example.com", "legal.example.com", "finance.example.com", "research.example.com"],
    });

    // An exclusion list (everyone except these is monitored): removals are sent before additions.
    new RuleUserList(this, "cloud-sharing-exceptions", {
      ruleId: "da77a39f-1ff4-4f17-89ff-967b250c2d49",
      users: [
        { userId: "908712345678902001", aliases: ["svc-backup@example.com"] },
        // An exception that lapses by itself: from 2027-06-30 (UTC) plan removes legal review from
        // the exceptions, so they are monitored again (the scheduled drift workflow applies it).
        { userId: "908712345678902002", aliases: ["legal.review@example.com", "counsel@legal.example.com"], expiresAt: "2027-06-30" },
        { userId: "908712345678902004", aliases: ["svc-archive@example.com"] },
      ],
    });

    // A rule named instead of identified: resolved by exact name when planning.
    new RuleUserList(this, "finance-mismatch", {
      ruleName: "Finance file type mismatch watch",
      users: [
        { userId: "908712345678903001", aliases: ["frank.moreau@example.com", "f.moreau@finance.example.com"] },
        { userId: "908712345678903002", aliases: ["grace.kim@example.com", "gkim@finance.example.com"] },
      ],
    });

    // Additive: only ever adds (users added in the console stay).
    new RuleUserList(this, "sales-exfiltration-additions", {
      ruleId: "852c0120-8fe3-4ffc-8e12-6f7ad95c4c79",
      mode: "additive",
      users: [{ userId: "908712345678904004", aliases: ["kofi.mensah@example.com"] }],
    });

    // Entries without user IDs (added in the console): the list is rebuilt with IDs.
    new RuleUserList(this, "research-lab", {
      ruleName: "Research lab endpoint watch",
      users: [
        { userId: "908712345678908001", aliases: ["maria.santos@example.com"] },
        { userId: "908712345678908002", aliases: ["visiting.scientist@example.com"] },
        { userId: "908712345678908003", aliases: ["lab.intern@example.com", "intern2025@research.example.com"] },
      ],
    });

    // These two cannot be edited through the interface: the plan reports them as skipped.
    new RuleUserList(this, "company-wide-monitor", {
      ruleId: "85083dfc-4bab-4e57-a7c1-e979e38c127b",
      users: [{ userId: "908712345678905001", aliases: ["someone@example.com"] }],
    });
    new RuleUserList(this, "departing-employees", {
      ruleName: "Departing Employee - Exfiltration",
      users: [{ userId: "908712345678906001", aliases: ["kevin.walsh@example.com"] }],
    });
  }
}

const app = new App();
new AlertRuleUsersStack(app, "alert-rules");
app.synth();
