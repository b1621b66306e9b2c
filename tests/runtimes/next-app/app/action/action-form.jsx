"use client";
// The form that calls the server action (./actions.js) and shows its answer.
import { useActionState } from "react";
import { productName } from "./actions";

export default function ActionForm({ slug }) {
  const [answer, submit] = useActionState(productName, "idle");
  return (
    <form action={submit}>
      <input type="hidden" name="slug" value={slug} />
      <button id="ask" type="submit">ask</button>
      <p id="action">{answer}</p>
    </form>
  );
}
