import type { DeepReadonly, StepContext } from "../../engine/index.ts";
import type { HotelFlowTypes } from "./hotel-flow.ts";

/** A hotel the user chose in ExploreStep, with the rate it was offered at. */
export interface ChosenHotel {
  name: string;
  nightlyRateCents: number;
}

export interface ExploreState {
  hotels?: ChosenHotel[];
}

/** The hotels chosen in ExploreStep, as the later steps reuse them instead of asking again. */
export function chosenHotels(
  context: Pick<StepContext<object, HotelFlowTypes>, "stateOf">,
): readonly DeepReadonly<ChosenHotel>[] {
  return context.stateOf("ExploreStep").hotels ?? [];
}
