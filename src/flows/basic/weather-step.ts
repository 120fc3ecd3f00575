import { Step, tool, stay, advance, characterProblem, type StepContext } from "../../engine/index.ts";
import type { BasicFlowTypes } from "./basic-flow.ts";
import { WEATHER_FIXTURE } from "./weather-fixture.ts";

/** `city_LA: 72`, one key per city asked for. */
export type WeatherState = Record<string, number>;

const ALIASES = Object.keys(WEATHER_FIXTURE);

export class WeatherStep extends Step<WeatherState, BasicFlowTypes> {
  systemPrompt(context: StepContext<WeatherState, BasicFlowTypes>): string {
    const name = context.stateOf("NameStep").name;
    return (
      `The user is ${String(name)}. Ask for exactly two city aliases (${ALIASES.join(", ")}) ` +
      "and call get_weather once per city. Do not ask for anything else."
    );
  }

  @tool({
    name: "get_weather",
    description: "Look up today's temperature for one city alias and save it.",
    parameters: {
      type: "object",
      properties: { cityName: { type: "string", minLength: 1, maxLength: 20 } },
      required: ["cityName"],
      additionalProperties: false,
    },
  })
  getWeather(args: { cityName: string }, context: StepContext<WeatherState, BasicFlowTypes>) {
    const given = args.cityName.trim();
    const unsavable = characterProblem(given, "The city alias");
    if (unsavable) return stay(unsavable);
    const alias = given.toUpperCase();
    const weather = WEATHER_FIXTURE[alias];
    if (!weather) {
      return stay(
        `"${args.cityName}" is not a known city alias. The aliases are ${ALIASES.join(", ")}; ask the user to pick from them.`,
      );
    }
    const saved = Object.keys(context.state);
    if (!saved.includes(`city_${alias}`) && saved.length >= 2) {
      return stay(`Two cities are already saved (${saved.join(", ")}); only two are allowed.`);
    }
    context.state[`city_${alias}`] = weather.fahrenheit;
    const report = `${alias} is ${weather.fahrenheit}°F`;
    const cities = Object.entries(context.state);
    if (cities.length < 2) return stay(`${report}. Ask for the second city.`);
    const both = cities.map(([key, fahrenheit]) => `${key.slice("city_".length)} ${fahrenheit}°F`).join(", ");
    return advance("AddressStep", `${report}. Both cities are saved: ${both}.`);
  }
}
