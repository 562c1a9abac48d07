/** An input error the model can fix; the adapter shows it as an isError result. */
export class ToolInputError extends Error {}
