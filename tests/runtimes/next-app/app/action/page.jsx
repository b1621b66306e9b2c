// The page of a server action: ?slug=S is the product the form asks for.
import ActionForm from "./action-form";

export const dynamic = "force-dynamic";

export default async function ActionPage({ searchParams }) {
  const { slug } = await searchParams;
  return <ActionForm slug={slug} />;
}
