// The loopback bridge to the Node worker stand-in: the extension's out-of-process orchestrator JSON and
// activity inputs go to Node as they are; a failure comes back as the worker reports one (a message, and
// for an orchestrator the library's state after its $OutOfProcData$ marker), and is thrown here so the
// extension fails the task or the instance as it does for a Node worker.
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;
using Microsoft.Azure.WebJobs.Extensions.DurableTask;
using Newtonsoft.Json.Linq;

namespace Breakwater.DurableExtensionHost;

public static class Bridge
{
    static readonly HttpClient Http = new()
    {
        BaseAddress = new Uri(Environment.GetEnvironmentVariable("BRIDGE_URL")!),
        Timeout = TimeSpan.FromMinutes(10),
    };

    /// <summary>One replay: the context JSON in, the orchestrator's state JSON out.</summary>
    public static async Task<string> Orchestrate(string name, string contextJson)
    {
        var reply = await Call($"orchestrator/{Uri.EscapeDataString(name)}", contextJson);
        return reply.Json ?? throw new InvalidOperationException($"orchestrator {name} returned nothing");
    }

    /// <summary>One activity run: its input as JSON in, its result out.</summary>
    public static async Task<JToken?> Activity(string name, IDurableActivityContext context)
    {
        var input = context.GetInput<JToken>();
        // The library JSON-encodes a string input itself (Utils.processInput), and the extension hands a
        // string input to the worker as the JSON text it already is; anything else is serialized here.
        var json = input switch
        {
            null => "null",
            { Type: JTokenType.String } => input.Value<string>() ?? "null",
            _ => input.ToString(Newtonsoft.Json.Formatting.None),
        };
        var reply = await Call($"activity/{Uri.EscapeDataString(name)}", json);
        return reply.Json is null ? null : JToken.Parse(reply.Json);
    }

    sealed record Reply(bool Ok, string? Json, string? Message);

    static async Task<Reply> Call(string path, string body)
    {
        using var content = new StringContent(body, Encoding.UTF8, "application/json");
        using var response = await Http.PostAsync(path, content);
        response.EnsureSuccessStatusCode();
        var reply = await response.Content.ReadFromJsonAsync<Reply>(new JsonSerializerOptions(JsonSerializerDefaults.Web))
            ?? throw new InvalidOperationException($"the bridge answered {path} with nothing");
        if (!reply.Ok) throw new WorkerFunctionException(reply.Message ?? "the function failed");
        return reply;
    }
}

/// <summary>A function that failed in the worker, carrying the worker's message.</summary>
public sealed class WorkerFunctionException(string message) : Exception(message);
