/** Rule IDs and users of the sample tenant (examples/sample-tenant.json). */
export const RULES = {
  engineering: "a33e7c21-5cb0-4cf5-a266-852063111751", // inclusion, 4 users
  cloudSharing: "da77a39f-1ff4-4f17-89ff-967b250c2d49", // exclusion, 3 users
  finance: "f4570500-47e2-48ad-abbb-28a532759836", // inclusion, 2 users
  sales: "852c0120-8fe3-4ffc-8e12-6f7ad95c4c79", // inclusion, 3 users
  allUsers: "85083dfc-4bab-4e57-a7c1-e979e38c127b", // ALL_USERS
  departing: "27c1d304-ba54-4b26-844e-b9eb369084f4", // Departing Employee system rule
  highRisk: "3c414811-1b1a-4884-8ae3-1a77bdf1ab0c", // High Risk Employee system rule
  research: "b21364d2-d213-4f11-8020-da1ca8f776af", // two entries without IDs + one user
  legal: "0bb8a318-ce64-4661-96f2-ea8ad764f3ca", // inclusion, 1 user
} as const;

export const FINANCE_NAME = "Finance file type mismatch watch";

export const ENGINEERING_USERS = [
  { userId: "908712345678901234", aliases: ["alice.nguyen@example.com", "alice.nguyen@eng.example.com"] },
  { userId: "908712345678901235", aliases: ["bob.okafor@example.com"] },
  { userId: "908712345678901236", aliases: ["carmen.diaz@example.com", "cdiaz@eng.example.com"] },
  { userId: "908712345678901237", aliases: ["dmitri.volkov@example.com"] },
];
