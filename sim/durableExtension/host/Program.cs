// A plain WebJobs host with the real Durable Task extension (Azure Storage backend), standing in for the
// Functions host's Durable side: the app's orchestrator and activities run in Node behind a loopback
// bridge (Bridge.cs); their forwarding stubs are generated from the app's registrations (Generated/).
using System.Text.Json.Nodes;
using Microsoft.Azure.WebJobs;
using Microsoft.Azure.WebJobs.Extensions.DurableTask;
using Microsoft.Azure.WebJobs.Host.Config;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Breakwater.DurableExtensionHost;

public static class Program
{
    public static async Task<int> Main()
    {
        var hostJsonPath = Required("BREAKWATER_HOST_JSON");
        var hubName = Required("BREAKWATER_TASK_HUB");
        Required("BRIDGE_URL");
        Required("AzureWebJobsStorage");

        var host = new HostBuilder()
            .ConfigureAppConfiguration(config =>
            {
                // The app's own durable settings, as the Functions host reads them from host.json.
                config.AddJsonStream(DurableSectionOf(hostJsonPath));
                // The harness's own: a hub per run, and short queue polling so a run takes seconds.
                var harness = new Dictionary<string, string?>
                {
                    [$"{Section}:hubName"] = hubName,
                    [$"{Section}:storageProvider:maxQueuePollingInterval"] =
                        Environment.GetEnvironmentVariable("BREAKWATER_MAX_QUEUE_POLLING") ?? "00:00:01",
                };
                // Only the crash scenario shortens it: how soon an activity a dead host had taken runs again.
                if (Environment.GetEnvironmentVariable("BREAKWATER_WORK_ITEM_VISIBILITY") is { Length: > 0 } visibility)
                    harness[$"{Section}:storageProvider:workItemQueueVisibilityTimeout"] = visibility;
                config.AddInMemoryCollection(harness);
                config.AddEnvironmentVariables();
            })
            .ConfigureWebJobs(webJobs => webJobs.AddDurableTask())
            // The Functions host provides the webhook base URL; without one the client binding cannot be built.
            .ConfigureServices(services => services.AddSingleton<IWebHookProvider, NoWebHooks>())
            .ConfigureLogging(logging =>
            {
                logging.AddSimpleConsole(o => { o.SingleLine = true; o.TimestampFormat = "HH:mm:ss.fff "; });
                logging.SetMinimumLevel(LogLevel.Warning);
                logging.AddFilter("Host.Triggers.DurableTask", LogLevel.Information);
            })
            .Build();

        await host.StartAsync();
        var jobHost = host.Services.GetRequiredService<IJobHost>();
        await jobHost.CallAsync(nameof(ClientData.GetClientData));
        // One line the Node side waits for: the durableClient binding data, as a worker would receive it.
        Console.Out.WriteLine($"BREAKWATER_READY {ClientData.Json}");
        Console.Out.Flush();

        // Stops when stdin closes (the Node side ended) or on SIGTERM.
        var stdinClosed = Task.Run(() => { while (Console.In.ReadLine() != null) { } });
        var lifetime = host.Services.GetRequiredService<IHostApplicationLifetime>();
        var stopping = Task.Delay(Timeout.Infinite, lifetime.ApplicationStopping);
        await Task.WhenAny(stdinClosed, stopping.ContinueWith(_ => { }));
        await host.StopAsync(TimeSpan.FromSeconds(5));
        return 0;
    }

    const string Section = "AzureWebJobs:Extensions:DurableTask";

    /// <summary>host.json's extensions.durableTask, under the key the WebJobs SDK binds the extension's options from.</summary>
    static Stream DurableSectionOf(string hostJsonPath)
    {
        var hostJson = JsonNode.Parse(File.ReadAllText(hostJsonPath))
            ?? throw new InvalidOperationException($"{hostJsonPath} is empty");
        var durable = hostJson["extensions"]?["durableTask"]?.DeepClone() ?? new JsonObject();
        var wrapped = new JsonObject
        {
            ["AzureWebJobs"] = new JsonObject { ["Extensions"] = new JsonObject { ["DurableTask"] = durable } },
        };
        return new MemoryStream(System.Text.Encoding.UTF8.GetBytes(wrapped.ToJsonString()));
    }

    static string Required(string name) =>
        Environment.GetEnvironmentVariable(name) is { Length: > 0 } value
            ? value
            : throw new InvalidOperationException($"{name} is not set");
}

/// <summary>
/// The Functions host serves the extension's webhooks (runtime/webhooks/durabletask); this host does not.
/// The binding data still names them, at a local address that refuses connections, so a client that used
/// them instead of the local RPC endpoint (rpcBaseUrl) would fail at once rather than reach something else.
/// </summary>
public sealed class NoWebHooks : IWebHookProvider
{
    public Uri GetUrl(IExtensionConfigProvider extension) => new("http://127.0.0.1:9/runtime/webhooks/durabletask");
}

/// <summary>The durableClient binding data the extension hands an out-of-process function.</summary>
public static class ClientData
{
    public static string Json { get; private set; } = "";

    [NoAutomaticTrigger]
    [FunctionName(nameof(GetClientData))]
    public static void GetClientData([DurableClient] string client) => Json = client;
}
