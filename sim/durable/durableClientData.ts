/**
 * The `durableClient` binding data the Durable extension hands a function, pointing the real
 * `durable-functions` client at a local management API on `port`. Also sets WEBSITE_HOSTNAME: without
 * it the client rewrites the URLs' origin to http://localhost:7071.
 */
export function durableClientData(port: number, taskHubName: string): Record<string, unknown> {
  process.env.WEBSITE_HOSTNAME = `127.0.0.1:${port}`;
  const wh = `http://127.0.0.1:${port}/runtime/webhooks/durabletask`;
  const q = `taskHub=${taskHubName}&connection=Storage&code=KEY`;
  return {
    taskHubName,
    creationUrls: {
      createNewInstancePostUri: `${wh}/orchestrators/{functionName}[/{instanceId}]?code=KEY`,
      waitOnNewInstancePostUri: `${wh}/orchestrators/{functionName}[/{instanceId}]?timeout={timeoutInSeconds}&pollingInterval={intervalInSeconds}&code=KEY`,
    },
    managementUrls: {
      id: 'INSTANCEID',
      statusQueryGetUri: `${wh}/instances/INSTANCEID?${q}`,
      sendEventPostUri: `${wh}/instances/INSTANCEID/raiseEvent/{eventName}?${q}`,
      terminatePostUri: `${wh}/instances/INSTANCEID/terminate?reason={text}&${q}`,
      rewindPostUri: `${wh}/instances/INSTANCEID/rewind?reason={text}&${q}`,
      purgeHistoryDeleteUri: `${wh}/instances/INSTANCEID?${q}`,
      suspendPostUri: `${wh}/instances/INSTANCEID/suspend?reason={text}&${q}`,
      resumePostUri: `${wh}/instances/INSTANCEID/resume?reason={text}&${q}`,
    },
    baseUrl: wh,
    requiredQueryStringParameters: 'code=KEY',
  };
}
