// A product suggested by predictive search (which knows its id, not its slug): redirected to its page.
import { redirect } from "next/navigation";
import { searchIndex } from "@/lib/search";

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const [{ id }, { cards }] = await Promise.all([params, searchIndex()]);
  const card = Object.hasOwn(cards, id) ? cards[id] : undefined;
  if (!card) return new Response("no such product", { status: 404 });
  redirect(`/products/${encodeURIComponent(card.slug)}`);
}
