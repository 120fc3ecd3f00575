import assert from "node:assert/strict";
import { test } from "node:test";
import { AddressCheckFlow } from "../../fixtures/flows/basic/address-check/address-check-flow.ts";
import { BasicFlow } from "../../fixtures/flows/basic/basic-flow.ts";
import { baselineObservations } from "../../../src/testing/strength/baseline-observations.ts";
import { generateMutants } from "../../../src/testing/strength/generate-mutants.ts";
import { builtPlay, type BuiltTurn } from "../../support/strength-plays.ts";

const nameTurns: BuiltTurn[] = [
  {
    label: "name rejected",
    step: "NameStep",
    steps: { NameStep: {} },
    answer: "That looks like a placeholder.",
    execution: [{ step: "NameStep", kind: "tool", name: "save_name", outcome: "stay" }],
  },
  {
    label: "name accepted",
    step: "WeatherStep",
    steps: { NameStep: { name: "Ada" } },
    answer: "Nice to meet you, Ada.",
    execution: [
      { step: "NameStep", kind: "tool", name: "save_name", outcome: "advance", to: "WeatherStep", wrote: ["name"] },
    ],
  },
];

const address = { zip: "97006" };
const wholeFlow = builtPlay("whole-flow", [
  ...nameTurns,
  {
    label: "two cities",
    step: "AddressStep",
    steps: { NameStep: { name: "Ada" }, WeatherStep: { city_LA: 72, city_NYC: 64 } },
    answer: "LA 72°F, NYC 64°F. Your address?",
    execution: [
      { step: "WeatherStep", kind: "tool", name: "get_weather", outcome: "stay", wrote: ["city_LA"] },
      {
        step: "WeatherStep",
        kind: "tool",
        name: "get_weather",
        outcome: "advance",
        to: "AddressStep",
        wrote: ["city_NYC"],
      },
    ],
  },
  {
    label: "address",
    step: "AddressStep",
    runStatus: "completed",
    steps: { NameStep: { name: "Ada" }, WeatherStep: { city_LA: 72, city_NYC: 64 }, AddressStep: { address } },
    answer: "Saved. That's everything.",
    execution: [
      { step: "AddressStep", kind: "child", name: "AddressCheck", outcome: "completed" },
      { step: "AddressStep", kind: "tool", name: "check_address", outcome: "complete", wrote: ["address"] },
    ],
    children: [
      {
        flow: "AddressCheck",
        parentStep: "AddressStep",
        turn: 4,
        runStatus: "completed",
        currentStep: "NormalizeAddressStep",
        steps: { NormalizeAddressStep: { address } },
        memory: {},
        execution: [
          {
            seq: 1,
            turn: 4,
            step: "NormalizeAddressStep",
            kind: "tool",
            name: "normalize_address",
            outcome: "complete",
            wrote: ["address"],
          },
        ],
      },
    ],
  },
]);
const nameOnly = builtPlay("name-only", nameTurns);
const stepsOf = (flow: string) => (flow === BasicFlow.name ? BasicFlow.stepNames : AddressCheckFlow.stepNames);

test("each tool's writes, outcomes and advances, each hand-off and child run become mutants with stable ids", () => {
  const ids = generateMutants(baselineObservations([wholeFlow, nameOnly]), stepsOf).map(({ mutant }) => mutant.id);
  assert.deepEqual(ids, [
    "BasicFlow/NameStep/save_name: drop state.name",
    "BasicFlow/NameStep/save_name: change state.name",
    "BasicFlow/NameStep/save_name: advance → stay",
    "BasicFlow/NameStep/save_name: advance → AddressStep",
    "BasicFlow/NameStep/save_name: stay → advance WeatherStep",
    "BasicFlow/WeatherStep/get_weather: drop state.city_LA",
    "BasicFlow/WeatherStep/get_weather: change state.city_LA",
    "BasicFlow/WeatherStep/get_weather: drop state.city_NYC",
    "BasicFlow/WeatherStep/get_weather: change state.city_NYC",
    "BasicFlow/WeatherStep/get_weather: advance → stay",
    "BasicFlow/WeatherStep/get_weather: advance → NameStep",
    "BasicFlow/WeatherStep/get_weather: stay → advance AddressStep",
    "BasicFlow/AddressStep/check_address: drop state.address",
    "BasicFlow/AddressStep/check_address: change state.address",
    "BasicFlow/AddressStep/check_address: withhold complete",
    "AddressCheck/NormalizeAddressStep/normalize_address: drop state.address",
    "AddressCheck/NormalizeAddressStep/normalize_address: change state.address",
    "AddressCheck/NormalizeAddressStep/normalize_address: withhold complete",
    "BasicFlow/NameStep: drop handoff",
    "BasicFlow/WeatherStep: drop handoff",
    "BasicFlow/AddressStep: skip child AddressCheck",
    "BasicFlow/AddressStep: drop output of child AddressCheck",
  ]);
});

test("a mutant carries the change and place the engine applies, and a child flow's tool is placed in the child flow", () => {
  const planned = generateMutants(baselineObservations([wholeFlow]), stepsOf).map(({ mutant }) => mutant);
  assert.deepEqual(
    planned.find((mutant) => mutant.id === "BasicFlow/NameStep/save_name: advance → AddressStep"),
    {
      id: "BasicFlow/NameStep/save_name: advance → AddressStep",
      flow: "BasicFlow",
      step: "NameStep",
      tool: "save_name",
      change: { kind: "advance-elsewhere", to: "AddressStep" },
    },
  );
  assert.deepEqual(
    planned.find((mutant) => mutant.id.startsWith("AddressCheck/") && mutant.id.endsWith("drop state.address")),
    {
      id: "AddressCheck/NormalizeAddressStep/normalize_address: drop state.address",
      flow: "AddressCheck",
      step: "NormalizeAddressStep",
      tool: "normalize_address",
      change: { kind: "drop-write", key: "address" },
    },
  );
});

test("a mutant is played only against the scenarios that ran its tool, step or child", () => {
  const planned = generateMutants(baselineObservations([wholeFlow, nameOnly]), stepsOf);
  const reaching = (id: string) => planned.find(({ mutant }) => mutant.id === id)?.scenarios;
  assert.deepEqual(reaching("BasicFlow/NameStep/save_name: drop state.name"), ["whole-flow", "name-only"]);
  assert.deepEqual(reaching("BasicFlow/WeatherStep: drop handoff"), ["whole-flow"]);
  assert.deepEqual(reaching("BasicFlow/AddressStep: skip child AddressCheck"), ["whole-flow"]);
});

test("a tool is credited only the keys its own calls wrote, not those a sibling wrote in the same turn", () => {
  const play = builtPlay("two-tools", [
    {
      label: "name and confirm",
      step: "WeatherStep",
      steps: { NameStep: { name: "Ada" } },
      answer: "Nice to meet you, Ada.",
      execution: [
        { step: "NameStep", kind: "tool", name: "save_name", outcome: "stay", wrote: ["name"] },
        { step: "NameStep", kind: "tool", name: "confirm_name", outcome: "advance", to: "WeatherStep" },
      ],
    },
  ]);
  const ids = generateMutants(baselineObservations([play]), stepsOf).map(({ mutant }) => mutant.id);
  assert.deepEqual(ids, [
    "BasicFlow/NameStep/save_name: drop state.name",
    "BasicFlow/NameStep/save_name: change state.name",
    "BasicFlow/NameStep/save_name: stay → advance WeatherStep",
    "BasicFlow/NameStep/confirm_name: advance → stay",
    "BasicFlow/NameStep/confirm_name: advance → AddressStep",
    "BasicFlow/NameStep: drop handoff",
  ]);
});
