// The clients of the server's services over Connect (gamerec serve --web), same origin.
// A seat's token goes as the bearer token of every call of its page and in the `token`
// field of the calls that carry one; never in a URL the page requests.
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { MatchService } from "../gen/gamerec/v1/match_pb.js";
import { AssistService } from "../gen/gamerec/v1/assist_pb.js";

/**
 * The service clients, with `token` (a seat's, or "") as the bearer token.
 * @param {string} token
 */
export function clients(token) {
  /** @type {import("@connectrpc/connect").Interceptor} */
  const bearer = (next) => async (request) => {
    if (token) {
      request.header.set("Authorization", "Bearer " + token);
    }
    return next(request);
  };
  const transport = createConnectTransport({
    baseUrl: location.origin,
    useBinaryFormat: true,
    interceptors: [bearer],
  });
  return {
    matches: createClient(MatchService, transport),
    assist: createClient(AssistService, transport),
  };
}

/**
 * A call's error in words.
 * @param {unknown} error
 */
export function problem(error) {
  return error instanceof Error ? error.message : String(error);
}
