/** Diabetes (tablets, GLP-1 agonists, insulins), thyroid, steroids and other hormones. Row format: ../formulary.ts. */
export const ENDOCRINE = `
metformin||metformin sr,metformin er,metformin xr,metformin extended release|tablet,solution|250,500,750,850,1000,500mg/5ml|glycomet,glycomet sr,gluconorm,obimet,glyciphage,glucophage,glucophage xr,glumetza,riomet
glimepiride|||tablet|0.5,1,2,3,4|amaryl,glimy,zoryl,glimestar
metformin + glimepiride|||tablet||glycomet gp,glycomet gp 0.5,glycomet gp 1,glycomet gp 2,glycomet gp 3,glycomet gp 4,glycomet gp 1 forte,glycomet gp 2 forte,amaryl m,amaryl m 1,amaryl m 2,glimy m,gemer,gemer 1,gemer 2,zoryl m
metformin + glimepiride + voglibose|||tablet||
gliclazide|||tablet|30,40,60,80|diamicron,diamicron xr,glizid,reclide
metformin + gliclazide|||tablet||glizid m
glipizide|||tablet|2.5,5,10|glucotrol,glucotrol xl
glibenclamide|glyburide||tablet|1.25,2.5,5|daonil,euglucon,diabeta
metformin + glibenclamide|||tablet||glucovance
sitagliptin|||tablet|25,50,100|januvia,istavel,zita
sitagliptin + metformin|||tablet||janumet,janumet xr,istamet,zita met
vildagliptin|||tablet|50|galvus,jalra,zomelis
vildagliptin + metformin|||tablet||galvus met,jalra m,zomelis met
linagliptin|||tablet|5|trajenta,ondero
linagliptin + metformin|||tablet||trajenta duo,jentadueto
teneligliptin|||tablet|20|ziten,dynaglipt
teneligliptin + metformin|||tablet||
saxagliptin|||tablet|2.5,5|onglyza
alogliptin|||tablet|6.25,12.5,25|nesina
empagliflozin|||tablet|10,25|jardiance,gibtulio
empagliflozin + linagliptin|||tablet||glyxambi
empagliflozin + metformin|||tablet||synjardy,jardiance met
dapagliflozin|||tablet|5,10|forxiga,farxiga,oxra
dapagliflozin + metformin|||tablet||xigduo xr
dapagliflozin + sitagliptin|||tablet||
canagliflozin|||tablet|100,300|invokana
ertugliflozin|||tablet|5,15|steglatro
pioglitazone|||tablet|7.5,15,30,45|pioz,actos
metformin + pioglitazone|||tablet||actoplus met
voglibose|||tablet|0.2,0.3|volibo
acarbose|||tablet|25,50,100|glucobay,precose
repaglinide|||tablet|0.5,1,2|prandin
semaglutide|||tablet,injection|3,7,14,0.25,0.5,1,1.7,2,2.4|rybelsus,ozempic,wegovy
liraglutide|||injection|0.6,1.2,1.8,3|victoza,saxenda
dulaglutide|||injection|0.75,1.5,3,4.5|trulicity
tirzepatide|||injection|2.5,5,7.5,10,12.5,15|mounjaro,zepbound
exenatide|||injection|5mcg,10mcg,2|byetta,bydureon
insulin glargine||glargine,glargine insulin|injection|100units/ml,300units/ml|lantus,basalog,glaritus,basaglar,toujeo,semglee,rezvoglar
human regular insulin||regular insulin,soluble insulin,insulin regular,human insulin|injection|40units/ml,100units/ml|actrapid,huminsulin r,humulin r,insugen r,novolin r,wosulin r
isophane insulin||nph insulin,nph,insulin nph|injection|40units/ml,100units/ml|insulatard,huminsulin n,humulin n,insugen n,novolin n,wosulin n
premixed insulin 30/70||biphasic insulin,mixed insulin,premix insulin,insulin 30/70,insulin 70/30|injection|40units/ml,100units/ml|mixtard,mixtard 30,huminsulin 30/70,humulin 70/30,insugen 30/70,novolin 70/30,wosulin 30/70
insulin aspart||aspart|injection|100units/ml|novorapid,novolog,fiasp
biphasic insulin aspart 30||insulin aspart 30/70|injection|100units/ml|novomix 30,novolog mix 70/30
insulin lispro||lispro|injection|100units/ml,200units/ml|humalog,admelog,lyumjev
biphasic insulin lispro||insulin lispro mix|injection|100units/ml|humalog mix 25,humalog mix 50,humalog mix 75/25
insulin glulisine||glulisine|injection|100units/ml|apidra
insulin detemir||detemir|injection|100units/ml|levemir
insulin degludec||degludec|injection|100units/ml,200units/ml|tresiba
insulin degludec + insulin aspart|||injection||ryzodeg
glucagon|||injection,nasal powder|1,3|glucagen,baqsimi,gvoke
levothyroxine||thyroxine,l thyroxine|tablet|12.5mcg,25mcg,37.5mcg,50mcg,62.5mcg,75mcg,88mcg,100mcg,112mcg,125mcg,137mcg,150mcg,175mcg,200mcg|thyronorm,eltroxin,thyrox,synthroid,levoxyl,unithroid,euthyrox,tirosint
liothyronine|||tablet|5mcg,25mcg|cytomel
carbimazole|||tablet|5,10,20|neomercazole,antithyrox
methimazole||thiamazole|tablet|5,10|tapazole
propylthiouracil|||tablet|50|ptu
prednisolone|||tablet,syrup,injection|5,10,20,40,5mg/5ml,15mg/5ml|wysolone,omnacortil,predone,orapred
prednisone|||tablet|1,2.5,5,10,20,50|deltasone,rayos
methylprednisolone|||tablet,injection|4,8,16,32,40,125,500,1000|medrol,depo medrol,solu medrol
deflazacort|||tablet|6,12,18,24,30|defcort,emflaza
dexamethasone|||tablet,injection,eye drops|0.5,0.75,1,2,4,6,8,0.1%,4mg/ml|dexona,decadron,decdan,maxidex
betamethasone|||tablet,injection|0.5,1,4mg/ml|betnesol,celestone
hydrocortisone|||tablet,injection|5,10,20,100|cortef,solu cortef,efcorlin,hisone
fludrocortisone|||tablet|0.1|florinef
cabergoline|||tablet|0.25,0.5|cabgolin,dostinex
bromocriptine|||tablet|1.25,2.5|parlodel,cycloset
testosterone|||injection,gel|250,1%,1.62%|androgel,testogel,sustanon,depo testosterone
desmopressin|||tablet,nasal spray|0.1,0.2,10mcg|minirin,ddavp
`;
