// A product suggested by predictive search (which knows its id, not its slug): redirected to its page.
import { redirect, notFound } from "next/navigation";
import { searchIndex } from "@/lib/search";

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const [{ id }, { cards }] = await Promise.all([params, searchIndex()]);
  const card = Object.hasOwn(cards, id) ? cards[id] : undefined;
  if (!card) notFound();
  redirect(`/products/${encodeURIComponent(card.slug)}`);
}
