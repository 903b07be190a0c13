/** The user the simulator names as the author of every write through the API. */

/** The user name written to a rule's modifiedBy and to the creator and modifier of a case. */
export const SIMULATOR_API_USER = "api-client@example.com";

/** The user UID written as creator and last modifier of cases created through the API. */
export const SIMULATOR_API_USER_UID = "904000000000000001";
